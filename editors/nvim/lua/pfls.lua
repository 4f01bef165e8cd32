-- pfls for Neovim: starts `pfls serve` for Fortran buffers with the
-- built-in LSP client, on Neovim 0.7 (vim.lsp.start_client and
-- buf_attach_client) through 0.10 and later (vim.lsp.start, inlay hints
-- shown with vim.lsp.inlay_hint.enable), detects .hpf (free form) and
-- .fcm (fixed form) as Fortran, and adds :PflsEstimate, "Estimate this
-- loop" for the loop on the cursor's line.
--
--   require('pfls').setup({ settings = { pfls = { estimate = { procs = 64 } } } })
local M = {}

local defaults = {
  -- The server command; the binary is looked up on PATH.
  cmd = { 'pfls', 'serve' },
  filetypes = { 'fortran' },
  -- Files or folders that mark the root of a project; else the file's folder.
  root_markers = { '.git', '.hg', 'Makefile' },
  -- The pfls.* settings (see docs/editors/nvim.md); empty: the server's defaults.
  settings = { pfls = vim.empty_dict and vim.empty_dict() or {} },
  -- Show inlay hints (Neovim 0.10 and later).
  inlay_hints = true,
  -- Called as on_attach(client, bufnr) after the client attaches.
  on_attach = nil,
}

M.config = vim.deepcopy(defaults)
local clients = {} -- root folder → client id (Neovim before 0.8)
local warned = false

local function has(v)
  return vim.fn.has('nvim-' .. v) == 1
end

--- call runs a method of an LSP client object: with ':' on Neovim 0.11
--- and later, where the '.' form is deprecated, with '.' before.
function M.call(client, method, ...)
  if has('0.11') then return client[method](client, ...) end
  return client[method](...)
end

-- root_of returns the project folder of a file: the nearest folder upward
-- holding a root marker, else the file's own folder.
local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  local best
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.finddir(marker, dir .. ';')
    if found == '' then found = vim.fn.findfile(marker, dir .. ';') end
    if found ~= '' then
      local root = vim.fn.fnamemodify(found, ':p'):gsub('/$', '')
      root = vim.fn.fnamemodify(root, ':h')
      if not best or #root > #best then best = root end
    end
  end
  return best or dir
end

-- enable_inlay_hints turns the hints on where Neovim can show them: the
-- 0.10 signature enable(bool, filter), or the earlier enable(bufnr, bool).
local function enable_inlay_hints(bufnr)
  local ih = vim.lsp.inlay_hint
  if not (M.config.inlay_hints and type(ih) == 'table' and ih.enable) then return false end
  if not pcall(ih.enable, true, { bufnr = bufnr }) then pcall(ih.enable, bufnr, true) end
  return true
end

local function on_attach(client, bufnr)
  if client.server_capabilities and client.server_capabilities.inlayHintProvider then
    enable_inlay_hints(bufnr)
  end
  if M.config.on_attach then M.config.on_attach(client, bufnr) end
end

local function client_config(root)
  return {
    name = 'pfls',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    settings = M.config.settings,
    on_attach = on_attach,
  }
end

--- start attaches the pfls client to a buffer (the current one by
--- default), starting `pfls serve` for its project when needed. It returns
--- the client id, or nil when the server cannot run.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.fn.executable(M.config.cmd[1]) == 0 then
    if not warned then
      warned = true
      vim.notify(('pfls: %s is not executable. Build it with "go build -o pfls ./cmd/pfls" and put it on your PATH, '
        .. 'or pass cmd to require("pfls").setup (see the README, "Build and install").'):format(M.config.cmd[1]),
        vim.log.levels.ERROR)
    end
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  local root = root_of(name ~= '' and name or vim.fn.getcwd() .. '/x')
  if vim.lsp.start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local id = clients[root]
  local old = id and vim.lsp.get_client_by_id(id)
  if id and (not old or old.is_stopped()) then id = nil end
  if not id then
    id = vim.lsp.start_client(client_config(root))
    if not id then return nil end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- client returns the pfls client attached to a buffer, if any.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr, name = 'pfls' })
    or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(list) do
    if c.name == 'pfls' then return c end
  end
end

--- estimate runs "Estimate this loop" (pfls.estimateLoop) for the loop on
--- the cursor's line and shows the report; callback(err, text) is called
--- too when given.
function M.estimate(callback)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    vim.notify('pfls: no pfls client on this buffer', vim.log.levels.WARN)
    return
  end
  local line = vim.api.nvim_win_get_cursor(0)[1] -- 1-based, as the server wants
  local params = { command = 'pfls.estimateLoop', arguments = { vim.uri_from_bufnr(bufnr), line } }
  M.call(client, 'request', 'workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify('pfls: ' .. (err.message or vim.inspect(err)), vim.log.levels.WARN)
    end
    if callback then callback(err, result) end
  end, bufnr)
end

-- detect adds the filetypes of .hpf (free form) and .fcm (fixed form)
-- files, with the buffer variables that Vim's Fortran syntax reads.
local function detect()
  if has('0.8') then
    vim.filetype.add({
      extension = {
        hpf = function(_, bufnr) if bufnr then vim.b[bufnr].fortran_free_source = 1 end return 'fortran' end,
        fcm = function(_, bufnr) if bufnr then vim.b[bufnr].fortran_fixed_source = 1 end return 'fortran' end,
      },
    })
    return
  end
  local group = vim.api.nvim_create_augroup('pfls_filetype', { clear = true })
  for ext, var in pairs({ hpf = 'fortran_free_source', fcm = 'fortran_fixed_source' }) do
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = '*.' .. ext,
      callback = function(args)
        vim.b[args.buf][var] = 1
        vim.cmd('setfiletype fortran')
      end,
    })
  end
end

--- setup merges opts into the configuration, adds the filetypes, starts
--- the client on every Fortran buffer (also those already open) and
--- defines :PflsEstimate.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  detect()
  local group = vim.api.nvim_create_augroup('pfls', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args) M.start(args.buf) end,
  })
  vim.api.nvim_create_user_command('PflsEstimate', function() M.estimate() end,
    { desc = 'pfls: Estimate this loop (the loop on the cursor line)' })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(M.config.filetypes, vim.bo[buf].filetype) then
      M.start(buf)
    end
  end
end

return M
