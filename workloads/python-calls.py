# SPDX-License-Identifier: GPL-2.0-or-later
# python-calls: a pure-Python program made of small function calls, the
# workload of the usdt-python probe set (see python-calls.workload).
#
# It builds N comma-separated records, then parses each one and adds its
# value to a total per bucket: 3 Python function calls per record (parse,
# bucket, add) and 1 for the comprehension, so 3 N + 2 calls of this file,
# beside the interpreter's own at start (its imports). Prints one line.
import sys


def parse(line):
    fields = line.split(",")
    return int(fields[0]), fields[1], float(fields[2])


def bucket(name):
    return name[:6]


def add(totals, key, value):
    totals[key] = totals.get(key, 0.0) + value


def main(n):
    records = [f"{i},name{i % 97},{i * 0.5}" for i in range(n)]
    totals = {}
    for record in records:
        _, name, value = parse(record)
        add(totals, bucket(name), value)
    print(f"python-calls: {n} records, {3 * n + 2} calls, {len(totals)} buckets")


main(int(sys.argv[1]) if len(sys.argv) > 1 else 100000)
