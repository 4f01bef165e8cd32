-- End-to-end test of `pfls serve` with Neovim's built-in client (0.7+):
-- opens an example, waits for diagnostics, asks for hover, symbols, raw
-- inlay hints, highlights, folds, semantic tokens and calls, edits the
-- buffer and checks the answers change.
-- Usage: PFLS=/path/to/pfls nvim --headless -u NONE -l ... (see run.sh).
local pfls = os.getenv('PFLS')
local examples = os.getenv('EXAMPLES')
local function fail(msg)
  io.stderr:write('FAIL (nvim): ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

-- The diagnostics of redblack.f by version (0: published without one);
-- other files' are ignored, as their versions can equal redblack.f's.
local diags = {}
local watched
local id = vim.lsp.start_client({
  cmd = { pfls, 'serve' },
  name = 'pfls',
  root_dir = examples,
  flags = { debounce_text_changes = 0 },
  handlers = {
    ['textDocument/publishDiagnostics'] = function(_, result)
      if result.uri == watched then diags[result.version or 0] = result.diagnostics end
    end,
  },
})
if not id then fail('could not start pfls') end

vim.cmd('edit ' .. examples .. '/redblack.f')
vim.bo.readonly = false
local buf = vim.api.nvim_get_current_buf()
watched = vim.uri_from_bufnr(buf)
vim.lsp.buf_attach_client(buf, id)
local client = vim.lsp.get_client_by_id(id)
if not vim.wait(10000, function() return diags[0] ~= nil end, 20) then fail('no diagnostics after open') end
-- No errors; the compiler-capability notes of seed 000 on the sweeps.
local notes = 0
for _, d in ipairs(diags[0]) do
  if d.severity == 1 then fail('errors on redblack.f: ' .. vim.inspect(diags[0])) end
  if d.code == 'loop-distribution' then notes = notes + 1 end
end
if notes == 0 then fail('no loop-distribution note on redblack.f') end

local function request(method, params)
  local res, err = client.request_sync(method, params, 5000, buf)
  if not res then fail(method .. ': ' .. tostring(err)) end
  if res.err then fail(method .. ': ' .. vim.inspect(res.err)) end
  return res.result
end

local uri = vim.uri_from_bufnr(buf)
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local align
for i, l in ipairs(lines) do
  if l:find('ALIGN VAL WITH G', 1, true) then align = i - 1 end
end
local hover = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = align, character = 12 } })
if not hover or not hover.contents.value:find('REAL VAL(0:N+1,0:N+1)', 1, true) then fail('hover: ' .. vim.inspect(hover)) end

local syms = request('textDocument/documentSymbol', { textDocument = { uri = uri } })
if #syms ~= 1 or syms[1].name ~= 'REDBLK' then fail('symbols: ' .. vim.inspect(syms)) end
local loops = #syms[1].children

-- Neovim 0.7 has no inlay hint UI: ask raw.
local hints = request('textDocument/inlayHint', { textDocument = { uri = uri },
  range = { start = { line = 0, character = 0 }, ['end'] = { line = #lines, character = 0 } } })
if type(hints) ~= 'table' or #hints == 0 then fail('no inlay hints: ' .. vim.inspect(hints)) end
-- The costs `pfls complexity` prints: the program's summary on its header
-- and the DO 100 loop's on its first line, each at the end of its line.
local function labels_on(hs, line)
  local out = {}
  for _, h in ipairs(hs) do
    if h.position.line == line then out[#out + 1] = h.label end
  end
  return table.concat(out, ' | ')
end
local function line_of(ls, text)
  for i, l in ipairs(ls) do
    if l:find(text, 1, true) then return i - 1 end
  end
  fail('no line with ' .. text)
end
for _, h in ipairs(hints) do
  if h.position.character ~= #lines[h.position.line + 1] then fail('inlay hint not at a line end: ' .. vim.inspect(h)) end
end
if labels_on(hints, line_of(lines, 'DO 100 KC')) ~= '944 M' then fail('inlay hint on DO 100: ' .. vim.inspect(hints)) end
if labels_on(hints, line_of(lines, 'PROGRAM REDBLK')) ~= '944 M' then fail('inlay hint on PROGRAM REDBLK: ' .. vim.inspect(hints)) end

-- Highlights of VAL (writes on the assignments), folds (the header
-- comment, DO 100), semantic tokens, raw: Neovim 0.7 has no UI for most.
local hl = request('textDocument/documentHighlight', { textDocument = { uri = uri }, position = { line = align, character = 12 } })
local writes = 0
for _, h in ipairs(hl or {}) do
  if h.kind == 3 then writes = writes + 1 end
end
if writes ~= 4 or #hl < 20 then fail('documentHighlight: ' .. vim.inspect(hl)) end
local folds = request('textDocument/foldingRange', { textDocument = { uri = uri } })
local function has_fold(a, b, kind)
  for _, f in ipairs(folds or {}) do
    if f.startLine == a and f.endLine == b and f.kind == kind then return true end
  end
  return false
end
if not has_fold(0, 3, 'comment') or not has_fold(line_of(lines, 'DO 100 KC'), line_of(lines, '100 CONTINUE') - 1, nil) then fail('foldingRange: ' .. vim.inspect(folds)) end
local sem = request('textDocument/semanticTokens/full', { textDocument = { uri = uri } })
if not sem or #sem.data == 0 or #sem.data % 5 ~= 0 or not sem.resultId then fail('semanticTokens: ' .. vim.inspect(sem)) end

-- SUB2 of the PIPS report: the routine's polynomial on its header.
vim.cmd('edit ' .. examples .. '/sub2.f')
local sub = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(sub, id)
local sublines = vim.api.nvim_buf_get_lines(sub, 0, -1, false)
local subhints
vim.wait(10000, function()
  local res = client.request_sync('textDocument/inlayHint', { textDocument = { uri = vim.uri_from_bufnr(sub) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = #sublines, character = 0 } } }, 5000, sub)
  subhints = res and res.result
  return type(subhints) == 'table' and #subhints > 0
end, 50)
if labels_on(subhints or {}, line_of(sublines, 'SUBROUTINE SUB2')) ~= '1/2·M³ + 75/4·M² + 1… for M ≥ 10, M even' then fail('inlay hint on SUBROUTINE SUB2: ' .. vim.inspect(subhints)) end
if labels_on(subhints, line_of(sublines, 'DO 30 K')) ~= '-6·I - 6·J + 6·M + 70 for M + 10 ≥ I + J' then fail('inlay hint on DO 30: ' .. vim.inspect(subhints)) end
-- Call hierarchy of SUB2: no caller among the examples, no callee.
local suburi = vim.uri_from_bufnr(sub)
local sh = line_of(sublines, 'SUBROUTINE SUB2')
local items = request('textDocument/prepareCallHierarchy', { textDocument = { uri = suburi }, position = { line = sh, character = sublines[sh + 1]:find('SUB2', 1, true) } })
if type(items) ~= 'table' or #items ~= 1 or items[1].name ~= 'SUB2' then fail('prepareCallHierarchy: ' .. vim.inspect(items)) end
local incoming = request('callHierarchy/incomingCalls', { item = items[1] })
if type(incoming) ~= 'table' or #incoming ~= 0 then fail('incomingCalls: ' .. vim.inspect(incoming)) end

-- Intrinsics in dgefa.f: hover and signature help of ABS.
vim.cmd('edit ' .. examples .. '/dgefa.f')
local ge = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(ge, id)
local gelines = vim.api.nvim_buf_get_lines(ge, 0, -1, false)
local gl = line_of(gelines, 'IF (ABS(A(I,K))')
local gc = gelines[gl + 1]:find('ABS(', 1, true) -- 1-based: the 0-based column of B
local geuri = vim.uri_from_bufnr(ge)
local ghover
vim.wait(10000, function()
  local res = client.request_sync('textDocument/hover', { textDocument = { uri = geuri }, position = { line = gl, character = gc } }, 5000, ge)
  ghover = res and res.result
  return ghover ~= nil
end, 50)
if not ghover or not ghover.contents.value:find('intrinsic elemental function', 1, true) then fail('hover of ABS: ' .. vim.inspect(ghover)) end
local sig = request('textDocument/signatureHelp', { textDocument = { uri = geuri }, position = { line = gl, character = gc + 3 } })
if not sig or sig.signatures[1].label ~= 'ABS(A)' or sig.activeParameter ~= 0 then fail('signatureHelp of ABS: ' .. vim.inspect(sig)) end

-- Formatting a free-form buffer: the edits Neovim applies itself.
vim.cmd('edit ' .. vim.fn.tempname() .. '.f90')
local fb = vim.api.nvim_get_current_buf()
vim.api.nvim_buf_set_lines(fb, 0, -1, false, { 'program f', 'do i = 1, 3  ', 'x = i', 'end do', 'end program f' })
vim.lsp.buf_attach_client(fb, id)
local fedits = request('textDocument/formatting', { textDocument = { uri = vim.uri_from_bufnr(fb) }, options = { tabSize = 8, insertSpaces = true } })
if type(fedits) ~= 'table' or #fedits ~= 3 then fail('formatting: ' .. vim.inspect(fedits)) end
vim.lsp.util.apply_text_edits(fedits, fb, 'utf-16')
local flines = table.concat(vim.api.nvim_buf_get_lines(fb, 0, -1, false), '|')
if flines ~= 'program f|   do i = 1, 3|      x = i|   end do|end program f' then fail('formatted buffer: ' .. flines) end
vim.cmd('buffer ' .. buf)

-- Edit: add a second loop nest at the end of the program and IMPLICIT NONE.
local n = #lines
vim.api.nvim_buf_set_lines(buf, n - 1, n - 1, false, { '      DO 200 K = 1, 10', '         X = K', '  200 CONTINUE' })
vim.api.nvim_buf_set_lines(buf, 5, 5, false, { '      IMPLICIT NONE' })
if not vim.wait(10000, function()
  for v, d in pairs(diags) do
    if v > 0 then
      for _, x in ipairs(d) do
        if x.code == 'undeclared' and x.source == 'pfls' then return true end
      end
    end
  end
  return false
end, 20) then fail('no undeclared diagnostic after the edit: ' .. vim.inspect(diags)) end
local syms2 = request('textDocument/documentSymbol', { textDocument = { uri = uri } })
if #syms2[1].children ~= loops + 1 then fail('symbols after edit: ' .. vim.inspect(syms2)) end
local hover2 = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = align + 1, character = 12 } })
if not hover2 or not hover2.contents.value:find('REAL VAL', 1, true) then fail('hover after edit: ' .. vim.inspect(hover2)) end

client.stop()
vim.wait(5000, function() return client.is_stopped() end, 20)
io.stdout:write('ok (nvim): diagnostics, hover, symbols, inlay hints, highlight, folding, semantic tokens, call hierarchy, intrinsic hover, signature help, formatting, edit\n')
vim.cmd('qall!')
