-- POST /api/auth/login with the demo account (or $EMAIL and $PASSWORD), from a spread of
-- forwarded addresses, with $USER_AGENT as the User-Agent when it is set (no User-Agent
-- otherwise, as an API client may send). Any answer but 200 counts as an error in wrk's
-- "Non-2xx" line.
local body = string.format('{"email":"%s","password":"%s"}',
  os.getenv("EMAIL") or "user@example.com", os.getenv("PASSWORD") or "password123")
local agent = os.getenv("USER_AGENT")
local counter = 0
request = function()
  counter = counter + 1
  local address = string.format("10.%d.%d.%d", counter % 250, math.floor(counter / 250) % 250, math.random(1, 254))
  local headers = { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = address }
  if agent then headers["User-Agent"] = agent end
  return wrk.format("POST", "/api/auth/login", headers, body)
end
