#!/bin/sh
# A terminal agent: speaks no protocol; roost reads its screen and types the replies.
step() { printf '%s\n' "$1"; sleep 1; }
while true; do
  step "checking the build..."
  step "build ok: 3 artifacts"
  printf 'Deploy to staging. Proceed? [y/N] '
  read -r answer
  case "$answer" in
    y|Y|yes)
      step "uploading artifacts..."
      step "restarting services..."
      step "deployed. Waiting for the next build."
      sleep 5
      ;;
    *)
      step "cancelled. Checking again shortly."
      sleep 5
      ;;
  esac
done
