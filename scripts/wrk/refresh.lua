-- POST /api/auth/refresh, each connection following its own rotation chain.
-- $TOKENS holds refresh tokens, space-separated: twice as many as connections. wrk runs one Lua
-- state per thread, and each connection has at most one request in flight, so a thread keeps a
-- queue: a request takes a token, its answer gives back the successor. The spare tokens cover
-- the request wrk builds before connecting, which it never sends, so no chain runs dry.
local queue, threads = {}, 0
setup = function(thread)
  threads = threads + 1
  thread:set("id", threads)
end
init = function(args)
  local all = {}
  for token in string.gmatch(os.getenv("TOKENS"), "%S+") do all[#all + 1] = token end
  local count = tonumber(os.getenv("THREADS"))
  for i = id, #all, count do queue[#queue + 1] = all[i] end
end
request = function()
  -- wrk also calls this once outside any thread, to check the script: that call gets "none".
  local token = table.remove(queue, 1) or "none"
  return wrk.format("POST", "/api/auth/refresh", { ["Content-Type"] = "application/json" },
    '{"refresh_token":"' .. token .. '"}')
end
response = function(status, headers, body)
  local next = string.match(body, '"refresh_token"%s*:%s*"([^"]+)"')
  if next then queue[#queue + 1] = next end
end
