-- GET /api/me with the access token in $TOKEN.
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
