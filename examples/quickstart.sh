#!/usr/bin/env bash
# Install chronotasks and run a real lmms-eval evaluation on the bundled demo data
# with the random baseline. Usage: bash examples/quickstart.sh [TASKS] [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
TASKS="${1:-chrono_demo}"
MODEL="${2:-chrono_random}"

python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt torch torchvision
python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[test]"

export HF_HUB_OFFLINE=1
export CHRONOTASKS_DATA="$PWD/demo_data"
chronotasks demo-data --out "$CHRONOTASKS_DATA"
lmms-eval --model "$MODEL" --tasks "$TASKS" \
  --include_path "$(chronotasks tasks-path)" \
  --output_path outputs/quickstart --log_samples
