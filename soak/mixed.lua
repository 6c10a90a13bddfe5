-- Mixed traffic for wrk: page reads, refreshes from many sessions, item posts.
-- Per thread, each connection cycles through a fixed recipe; sessions are learnt from the
-- X-Session-Id answers, so refreshes come from many remembered sessions, not a new one each time.
-- Counts statuses by class; `done` prints one JSON line for the soak runner.

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  -- `wrk ... -- reads`: page reads only.
  reads_only = args[1] == "reads"
  sessions = {}
  counter = 0
  status_2xx, status_3xx, status_4xx, status_5xx = 0, 0, 0, 0
  posts, refreshes, reads = 0, 0, 0
  json = { ["Content-Type"] = "application/json" }
end

function request()
  counter = counter + 1
  local kind = counter % 10
  if reads_only then kind = 4 + counter % 6 end
  if kind == 0 then
    posts = posts + 1
    return wrk.format("POST", "/api/items", json, '{"title": "soak ' .. id .. "-" .. counter .. '", "author": "wrk"}')
  elseif kind <= 3 then
    refreshes = refreshes + 1
    local headers = { ["Content-Type"] = "application/json" }
    local slot = counter % 64
    if sessions[slot] then headers["X-Session-Id"] = sessions[slot] end
    last_slot = slot
    return wrk.format("POST", "/api/refresh", headers, "{}")
  elseif kind <= 6 then
    reads = reads + 1
    return wrk.format("GET", "/api/items?limit=10")
  elseif kind <= 8 then
    reads = reads + 1
    return wrk.format("GET", "/api/items?limit=20&before=" .. (1 + (counter * 7) % 500))
  else
    reads = reads + 1
    return wrk.format("GET", "/api/items?limit=5&after=" .. (counter % 300))
  end
end

function response(status, headers, body)
  if status >= 500 then status_5xx = status_5xx + 1
  elseif status >= 400 then status_4xx = status_4xx + 1
  elseif status >= 300 then status_3xx = status_3xx + 1
  else status_2xx = status_2xx + 1 end
  local session = headers["X-Session-Id"]
  if session and last_slot and not sessions[last_slot] then sessions[last_slot] = session end
end

function done(summary, latency, requests)
  local s2, s3, s4, s5, p, r, g = 0, 0, 0, 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    s2 = s2 + thread:get("status_2xx"); s3 = s3 + thread:get("status_3xx")
    s4 = s4 + thread:get("status_4xx"); s5 = s5 + thread:get("status_5xx")
    p = p + thread:get("posts"); r = r + thread:get("refreshes"); g = g + thread:get("reads")
  end
  local e = summary.errors
  io.write(string.format(
    'SOAK {"requests": %d, "seconds": %.2f, "status_2xx": %d, "status_3xx": %d, "status_4xx": %d, "status_5xx": %d, ' ..
    '"posts": %d, "refreshes": %d, "reads": %d, "connect_errors": %d, "read_errors": %d, "write_errors": %d, ' ..
    '"timeouts": %d, "non_2xx_3xx": %d, "p50_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f}\n',
    summary.requests, summary.duration / 1e6, s2, s3, s4, s5, p, r, g, e.connect, e.read, e.write, e.timeout,
    e.status, latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
