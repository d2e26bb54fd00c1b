"""TAB-VLM (Ranjan et al., "On the Cultural Anachronism and Temporal Reasoning in
Vision Language Models"): release conversion, demo data and result reports.

- schema.py: the six task types, the period taxonomy (Table 2) and the
  conversion of one release question into a task record.
- prepare.py: ``chronotasks prepare tabvlm`` (release JSON + images -> task files).
- demo.py: synthetic demo data in the same format.
- report.py: ``chronotasks report tabvlm`` (Table 1 mean ± std over runs).
"""
