#!/usr/bin/env bash
# Regenerates the example outputs in docs/doctor.md from the doctor's tests (the real output for a
# healthy tenant and for each fault).
set -euo pipefail
cd "$(dirname "$0")/.."
DOCTOR_EXAMPLES=1 npx jest test/connector/doctor.test.ts
