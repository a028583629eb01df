#!/usr/bin/env bash
# System packages the lab and the tests need. Installs what is missing when run as root on Debian/Ubuntu;
# otherwise prints the exact command and fails. Used by .ci/run, `npm test` (pretest) and `npm run demo`.
#   scripts/prereqs.sh [lab|test]    lab: OpenSSH, openssl, curl; test: also ansible-core (inventory tests compare with it,
#                                    export tests run ansible-playbook), ansible-lint (the exported playbook passes it),
#                                    chromium (the HTML report opened headless), prometheus (promtool checks metrics and rules),
#                                    busybox and dash (the host reads run under each /bin/sh a node may have)
set -euo pipefail
need=()
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
{ command -v ssh && command -v ssh-keygen; } >/dev/null || need+=(openssh-client)
command -v openssl >/dev/null || need+=(openssl)
command -v curl >/dev/null || need+=(curl)
[ "${1:-test}" = test ] && { command -v ansible-inventory >/dev/null || need+=(ansible-core); }
[ "${1:-test}" = test ] && { command -v ansible-lint >/dev/null || need+=(ansible-lint); }
[ "${1:-test}" = test ] && { [ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_PATH:-}" ] || need+=(chromium); }
[ "${1:-test}" = test ] && { command -v promtool >/dev/null || need+=(prometheus); }
# the host reads are tested under each /bin/sh a node may have: dash, bash and BusyBox's ash
[ "${1:-test}" = test ] && { [ -x /usr/bin/busybox ] || need+=(busybox); }
[ "${1:-test}" = test ] && { [ -x /usr/bin/dash ] || need+=(dash); }
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "smdoctor: installing ${need[*]} (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "smdoctor: missing system packages: ${need[*]}" >&2
    echo "  install them with: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi
# sshd wants its privilege-separation directory even for a test server
if [ ! -d /run/sshd ]; then mkdir -p /run/sshd 2>/dev/null || true; fi
