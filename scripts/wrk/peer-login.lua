-- POST /auth/jwt/login on fastapi-users (a form, as its OAuth2 password flow takes it).
-- Any answer but 200 counts as an error in wrk's "Non-2xx" line.
request = function()
  return wrk.format("POST", "/auth/jwt/login", { ["Content-Type"] = "application/x-www-form-urlencoded" },
    "username=user%40example.com&password=password123")
end
