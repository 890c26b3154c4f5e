#!/usr/bin/env bash
# Regenerate the shipped puzzle sets in positions/puzzles/ (deterministic: the same seeds give the
# same files). Then: ronda-solve puzzles check positions/puzzles/*.txt
set -euo pipefail
cd "$(dirname "$0")/puzzles"
gen() { echo "$*" >&2; ronda-solve puzzles generate --force "$@"; }
gen --theme hit         --count 10 --seed 1 -o hit.txt
gen --theme answer5     --count 10 --seed 1 -o answer5.txt
gen --theme answer10    --count 8  --seed 1 -o answer10.txt
gen --theme missa       --count 10 --seed 1 -o missa.txt
gen --theme run         --count 12 --seed 1 -o run.txt
gen --theme bait        --count 12 --seed 1 --max-candidates 6000 -o bait.txt
gen --theme avoid-hit   --count 10 --seed 1 -o avoid-hit.txt
gen --theme sweep       --count 12 --seed 1 -o sweep.txt
gen --theme declaration --count 12 --seed 1 -o declaration.txt
gen --theme quiet       --count 10 --seed 1 -o quiet.txt
gen --source selfplay --agents mc:10 --count 30 --seed 1 -o selfplay.txt
gen --source selfplay --agents mc:10 --rules pagat --players 4 --count 12 --seed 1 -o selfplay-pagat4.txt
gen --rules pagat  --players 4 --count 12 --seed 1 -o composed-pagat4.txt
gen --rules french --players 4 --count 8  --seed 1 -o composed-french4.txt
gen --rules french --players 3 --count 12 --seed 1 -o composed-french3.txt
gen --source selfplay --agents mc:10 --rules french --players 3 --count 12 --seed 1 -o selfplay-french3.txt
