-- POST /api/auth/login with the demo account (or $EMAIL and $PASSWORD), from a spread of
-- forwarded addresses. Any answer but 200 counts as an error in wrk's "Non-2xx" line.
local body = string.format('{"email":"%s","password":"%s"}',
  os.getenv("EMAIL") or "user@example.com", os.getenv("PASSWORD") or "password123")
local counter = 0
request = function()
  counter = counter + 1
  local address = string.format("10.%d.%d.%d", counter % 250, math.floor(counter / 250) % 250, math.random(1, 254))
  return wrk.format("POST", "/api/auth/login",
    { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = address }, body)
end
