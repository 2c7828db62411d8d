#!/bin/bash
# usage: cpu.tmp.sh PORT N -- autocannon args...   → CPU ms per request of the server on PORT
PORT=$1; N=$2; shift 2
PID=$(ss -ltnp "sport = :$PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
t0=$(awk '{print $14+$15}' /proc/$PID/stat)
taskset -c 1 node /work/main/node_modules/autocannon/autocannon.js -a $N -c 10 "$@" > /tmp/ac.out 2>&1
t1=$(awk '{print $14+$15}' /proc/$PID/stat)
python3 -c "print('cpu ms/req', round(($t1-$t0)*10/$N, 4), open('/tmp/ac.out').read().count('non 2xx') and '')"
grep -E "requests in|non 2xx" /tmp/ac.out | head -2
