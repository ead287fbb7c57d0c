#!/usr/bin/env bash
# Start-up smoke of the path a new user takes: `npm start` with no DATABASE_URL (embedded PGlite in a fresh
# DATA_DIR), then login, create a client, read it back; stop with SIGTERM, start again and find it persisted.
set -euo pipefail
cd "$(dirname "$0")/.."

export DATA_DIR; DATA_DIR="$(mktemp -d)"
export PORT="${SMOKE_PORT:-$((20000 + RANDOM % 20000))}"
unset DATABASE_URL
base="http://127.0.0.1:$PORT"
passed=0; failed=0; pid=""

check() { # name, expected, actual
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1: expected $2, got $3"; fi
}

start() {
  npm start --silent > "$DATA_DIR/service.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    curl -sf "$base/health" > /dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "service did not become healthy:"; tail -n 30 "$DATA_DIR/service.log"; exit 1
}

stop() {
  kill -TERM "$pid"
  wait "$pid" || true
  pid=""
}

cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT

json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]]))' "$1"; }

start
token=$(curl -s -X POST "$base/v1/auth/login" -H 'content-type: application/json' \
  -d '{"clientId":"sandbox-client","clientSecret":"sandbox-secret"}' | json accessToken)
check "login gives a token" true "$([ ${#token} -gt 20 ] && echo true || echo false)"
created=$(curl -s -o "$DATA_DIR/created.json" -w '%{http_code}' -X POST "$base/v1/clients" \
  -H "authorization: Bearer $token" -H 'content-type: application/json' -H 'Idempotency-Key: smoke-1' \
  -d '{"businessName":"Smoke SA","taxId":"30-71234567-1","documentType":"CUIT"}')
check "create a client" 201 "$created"
id=$(json id < "$DATA_DIR/created.json")
check "read it back" 200 "$(curl -s -o /dev/null -w '%{http_code}' "$base/v1/clients/$id" -H "authorization: Bearer $token")"
account=$(curl -s -X POST "$base/v1/receivable-accounts" -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -H 'Idempotency-Key: smoke-account-1' -d "{\"clientId\":$id}" | json id)
status=""
for _ in $(seq 1 20); do
  status=$(curl -s "$base/v1/receivable-accounts/$account" -H "authorization: Bearer $token" | json status)
  [ "$status" = "ACTIVE" ] && break
  sleep 0.25
done
check "receivable account gets its CVU from the in-process simulator" ACTIVE "$status"
collected=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/v1/sandbox/collections" -H "authorization: Bearer $token" \
  -H 'content-type: application/json' -d "{\"receivableAccountId\":$account,\"amount\":\"125.50\",\"counterParty\":{\"name\":\"Payer\",\"taxId\":\"20-12345678-6\"}}")
check "a sandbox collection arrives" 201 "$collected"
check "the settlement run sweeps it" 1 "$(curl -s -X POST "$base/v1/sandbox/settlement-runs" -H "authorization: Bearer $token" | json settlements)"
stop
check "admin ledger verify on the stopped data dir" 0 "$(npm run admin --silent -- ledger verify > "$DATA_DIR/verify.log" 2>&1; echo $?)"
check "graceful shutdown logged" 1 "$(grep -c '"msg":"stopped"' "$DATA_DIR/service.log")"

start
token=$(curl -s -X POST "$base/v1/auth/login" -H 'content-type: application/json' \
  -d '{"clientId":"sandbox-client","clientSecret":"sandbox-secret"}' | json accessToken)
check "client persisted across restart" "Smoke SA" "$(curl -s "$base/v1/clients/$id" -H "authorization: Bearer $token" | json businessName)"
check "sandbox bootstrap is idempotent" 1 "$(curl -s "$base/v1/me" -H "authorization: Bearer $token" | json customerId)"
stop

echo "smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
