-- Headless end-to-end test of the shipped Neovim set-up (lua/pfls.lua):
-- filetype detection of .hpf and .fcm, then on examples/redblack.f through
-- require('pfls').setup() only: diagnostics without errors, hover, a code
-- action resolved and applied, raw inlay hints, :PflsEstimate, formatting
-- and signature help on a free-form buffer. Runs on Neovim 0.7
-- and later. Usage: editors/nvim/run.sh PATH-TO-PFLS.
local pfls = os.getenv('PFLS')
local repo = os.getenv('PFLS_REPO')
local function fail(msg)
  io.stderr:write('FAIL (nvim set-up): ' .. msg .. '\n')
  vim.cmd('cquit 1')
end
local passed = {}
local function ok(what) passed[#passed + 1] = what end

vim.opt.runtimepath:prepend(repo .. '/editors/nvim')
local mod = require('pfls')
mod.setup({ cmd = { pfls, 'serve' }, settings = { pfls = { estimate = { procs = 16 } } } })
vim.cmd('filetype plugin on')

-- Filetypes: .hpf is free-form Fortran, .fcm fixed form.
local tmp = vim.fn.tempname()
vim.fn.mkdir(tmp, 'p')
for ext, var in pairs({ hpf = 'fortran_free_source', fcm = 'fortran_fixed_source' }) do
  local f = tmp .. '/t.' .. ext
  vim.fn.writefile({ '      PROGRAM T', '      END' }, f)
  vim.cmd('edit ' .. f)
  if vim.bo.filetype ~= 'fortran' or vim.b[var] ~= 1 then
    fail(('%s: filetype %q, b:%s = %s'):format(f, vim.bo.filetype, var, vim.inspect(vim.b[var])))
  end
end
ok('filetypes')
vim.wait(10000, function() return mod.client(0) ~= nil end, 20)
if not mod.client(0) then fail('no pfls client on a .fcm buffer') end
vim.cmd('bufdo bwipeout!')

vim.cmd('edit ' .. repo .. '/examples/redblack.f')
local buf = vim.api.nvim_get_current_buf()
vim.bo.readonly = false
if vim.bo.filetype ~= 'fortran' then fail('redblack.f has filetype ' .. vim.bo.filetype) end
if not vim.wait(10000, function() return mod.client(buf) ~= nil end, 20) then fail('the set-up attached no client') end
local client = mod.client(buf)

-- Diagnostics arrive through Neovim's own handler: notes, no errors.
if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then fail('no diagnostics') end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  if d.severity == vim.diagnostic.severity.ERROR then fail('error on redblack.f: ' .. vim.inspect(d)) end
end
ok('diagnostics')

local function request(method, params)
  local res, err = mod.call(client, 'request_sync', method, params, 10000, buf)
  if not res then fail(method .. ': ' .. tostring(err)) end
  if res.err then fail(method .. ': ' .. vim.inspect(res.err)) end
  return res.result
end
local function line_of(text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find(text, 1, true) then return i - 1 end
  end
  fail('no line with ' .. text)
end
local uri = vim.uri_from_bufnr(buf)

-- Hover on VAL in "ALIGN VAL WITH G".
local align = line_of('ALIGN VAL WITH G')
local hover = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = align, character = 12 } })
local htext = hover and hover.contents and (hover.contents.value or hover.contents)
if type(htext) ~= 'string' or not htext:find('VAL', 1, true) then fail('hover: ' .. vim.inspect(hover)) end
ok('hover')

-- Raw inlay hints (Neovim 0.7 cannot show them).
local n = vim.api.nvim_buf_line_count(buf)
local hints = request('textDocument/inlayHint', { textDocument = { uri = uri },
  range = { start = { line = 0, character = 0 }, ['end'] = { line = n, character = 0 } } })
if type(hints) ~= 'table' or #hints == 0 then fail('no inlay hints: ' .. vim.inspect(hints)) end
local do100 = line_of('DO 100 KC')
-- The costs `pfls complexity` prints: the DO 100 loop's on its line, the
-- program's summary on its header.
local function labels_on(line)
  local out = {}
  for _, h in ipairs(hints) do
    if h.position.line == line then out[#out + 1] = h.label end
  end
  return table.concat(out, ' | ')
end
if labels_on(do100) ~= '944 M' then fail('inlay hint on the DO 100 line: ' .. vim.inspect(hints)) end
if labels_on(line_of('PROGRAM REDBLK')) ~= '944 M' then fail('inlay hint on PROGRAM REDBLK: ' .. vim.inspect(hints)) end
ok('inlay hints (' .. #hints .. ')')

-- :PflsEstimate on the DO 100 line.
vim.api.nvim_win_set_cursor(0, { do100 + 1, 8 })
local report
mod.estimate(function(err, text) report = err and ('error ' .. vim.inspect(err)) or text end)
if not vim.wait(10000, function() return report ~= nil end, 20) then fail('no answer to PflsEstimate') end
if not report:find('^Loop at line ' .. (do100 + 1)) then fail('estimate: ' .. report) end
ok('estimate')

-- A code action on the DO 100 line: the first distribution, applied.
-- Neovim announces codeAction/resolve for edits, so the server leaves the
-- edit out and resolve computes it, as Neovim's own menu does.
local actions = request('textDocument/codeAction', { textDocument = { uri = uri },
  range = { start = { line = do100, character = 0 }, ['end'] = { line = do100, character = 0 } },
  context = { diagnostics = {} } })
local action
for _, a in ipairs(actions or {}) do
  if a.kind == 'refactor.rewrite' then action = a; break end
end
if not action then fail('no distribution action: ' .. vim.inspect(actions)) end
if not action.edit then
  action = request('codeAction/resolve', action)
  if not action or not action.edit then fail('codeAction/resolve gave no edit: ' .. vim.inspect(action)) end
  ok('codeAction/resolve')
end
local before = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
local after = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
if vim.deep_equal(before, after) then fail('code action "' .. action.title .. '" changed nothing') end
local dist = after[line_of('DISTRIBUTE') + 1]
if dist == before[line_of('DISTRIBUTE') + 1] then fail('DISTRIBUTE line unchanged by "' .. action.title .. '"') end
ok('code action "' .. action.title .. '" → ' .. vim.trim(dist))

-- A free-form buffer: Neovim's own format command, then signature help.
local f90 = tmp .. '/fmt.f90'
vim.fn.writefile({ 'program f', 'do i = 1, 3', 'x = mod(i, 2)', 'end do', 'end program f' }, f90)
vim.cmd('edit ' .. f90)
local fb = vim.api.nvim_get_current_buf()
if not vim.wait(10000, function() return mod.client(fb) ~= nil end, 20) then fail('no client on fmt.f90') end
local fclient = mod.client(fb)
if vim.lsp.buf.format then
  vim.lsp.buf.format({ bufnr = fb, timeout_ms = 5000 })
else
  vim.lsp.buf.formatting_sync(nil, 5000)
end
local formatted = table.concat(vim.api.nvim_buf_get_lines(fb, 0, -1, false), '|')
if formatted ~= 'program f|   do i = 1, 3|      x = mod(i, 2)|   end do|end program f' then fail('formatted: ' .. formatted) end
ok('formatting')
local res = mod.call(fclient, 'request_sync', 'textDocument/signatureHelp',
  { textDocument = { uri = vim.uri_from_bufnr(fb) }, position = { line = 2, character = 16 } }, 5000, fb)
local sig = res and res.result
if not sig or sig.signatures[1].label ~= 'MOD(A, P)' or sig.activeParameter ~= 1 then fail('signatureHelp: ' .. vim.inspect(res)) end
ok('signature help')
mod.call(fclient, 'stop')

mod.call(client, 'stop')
vim.wait(5000, function() return mod.call(client, 'is_stopped') end, 20)
io.stdout:write('ok (nvim set-up, Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor)
  .. '): ' .. table.concat(passed, ', ') .. '\n')
vim.cmd('qall!')
