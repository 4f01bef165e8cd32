#!/bin/sh
# Writes docs/editors/nvim-session.txt: Neovim (in tmux, 100x40) with the
# shipped set-up (editors/nvim) on examples/redblack.f, captured after the
# diagnostics arrive, with the raw inlay hints listed, with the code action
# menu on the DO 100 line, and after the first rewrite is applied.
# Needs tmux and nvim. Usage: docs/editors/nvim-session.sh PATH-TO-PFLS
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
pfls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
cp "$repo/examples/redblack.f" "$work/"
chmod u+w "$work/redblack.f"
cat >"$work/init.lua" <<LUA
vim.opt.runtimepath:prepend('$repo/editors/nvim')
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
vim.opt.signcolumn = 'yes'
vim.opt.number = true
require('pfls').setup({ cmd = { '$pfls', 'serve' } })
-- Neovim before 0.10 cannot draw inlay hints: list them.
function _G.show_hints()
  local c = require('pfls').client(0)
  local n = vim.api.nvim_buf_line_count(0)
  local res = require('pfls').call(c, 'request_sync', 'textDocument/inlayHint', { textDocument = { uri = vim.uri_from_bufnr(0) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = n, character = 0 } } }, 5000, 0)
  local out = {}
  for _, h in ipairs(res.result or {}) do
    local label = type(h.label) == 'string' and h.label or h.label[1].value
    out[#out + 1] = ('line %d: %s'):format(h.position.line + 1, label)
  end
  vim.api.nvim_echo({ { table.concat(out, '\n') } }, false, {})
end
LUA
s=pfls-session-$$
out="$repo/docs/editors/nvim-session.txt"
tmux new-session -d -s "$s" -x 100 -y 40 "cd $work && nvim -n -i NONE -u init.lua redblack.f"
trap 'tmux kill-session -t "$s" 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 4
{
  echo "# Neovim $(nvim --version | head -1 | cut -d' ' -f2) with editors/nvim on examples/redblack.f ($(basename "$pfls") serve)"
  echo "# 1. After opening: diagnostics as virtual text and signs"
  tmux capture-pane -p -t "$s"
  tmux send-keys -t "$s" ':lua show_hints()' Enter
  sleep 2
  echo "# 2. :lua show_hints() — the inlay hints pfls sends (drawn inline on Neovim >= 0.10)"
  tmux capture-pane -p -t "$s"
  tmux send-keys -t "$s" Enter
  tmux send-keys -t "$s" ':13' Enter ':lua vim.lsp.buf.code_action()' Enter
  sleep 3
  echo "# 3. On the DO 100 line, :lua vim.lsp.buf.code_action()"
  tmux capture-pane -p -t "$s"
  tmux send-keys -t "$s" '2' Enter
  sleep 3
  tmux send-keys -t "$s" ':10' Enter
  sleep 1
  echo "# 4. After choosing 2: the DISTRIBUTE line is rewritten"
  tmux capture-pane -p -t "$s"
} | sed 's/[[:space:]]*$//' >"$out"
tmux send-keys -t "$s" Escape ':qa!' Enter
echo "wrote $out"
