#!/usr/bin/python3
"""The tests' own HTTP proxy between nudge-sync and a CalDAV server, for faults the server
would never make on its own. Usage: fault-proxy.py LISTEN_PORT SERVER_PORT MODE_FILE

Each request is read whole, sent to the server on a connection of its own, and its whole
answer read; what the client then gets follows the first line of MODE_FILE, read again for
every request (so a test changes the fault between two requests):

  pass               the answer as it is
  stall              nothing, ever (the connection stays open)
  cut N              the first N bytes of the answer, then the connection is closed
  status CODE [S]    CODE with an empty body (and Retry-After: S) instead of asking the server
  refuse-writes      412 to every PUT and DELETE (not sent to the server); the rest passes
  hang-after-write   PUT and DELETE reach the server, but their answer never comes back;
                     the file MODE_FILE.written is made once the server has answered

Every request is appended to MODE_FILE.log as "METHOD PATH -> what was done".
"""
import asyncio, os, sys

listen_port, server_port, mode_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def mode():
    try:
        with open(mode_file) as f:
            return (f.readline().split() or ["pass"])
    except OSError:
        return ["pass"]


def log(line):
    with open(mode_file + ".log", "a") as f:
        f.write(line + "\n")


async def read_message(reader, is_response=False, method=None):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = b""
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            body += chunk[:-2]
            if size == 0:
                break
        headers.pop("transfer-encoding")
    elif is_response and method != "HEAD" and not lines[0].split(" ")[1].startswith(("1", "204", "304")):
        body = await reader.read()
    return lines[0], headers, body


def encode(first, headers, body):
    headers = dict(headers)
    headers["content-length"] = str(len(body))
    headers["connection"] = "close"
    return (first + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode("latin-1") + body


async def handle(client_reader, client_writer):
    try:
        first, headers, body = await read_message(client_reader)
    except (asyncio.IncompleteReadError, ConnectionError):
        client_writer.close()
        return
    method, path = first.split(" ")[0], first.split(" ")[1]
    current = mode()
    write = method in ("PUT", "DELETE")
    if current[0] == "status" or (current[0] == "refuse-writes" and write):
        code = current[1] if current[0] == "status" else "412"
        extra = {"retry-after": current[2]} if current[0] == "status" and len(current) > 2 else {}
        log(f"{method} {path} -> {code}")
        client_writer.write(encode(f"HTTP/1.1 {code} Fault", extra, b""))
        await client_writer.drain()
        client_writer.close()
        return
    if current[0] == "stall":
        log(f"{method} {path} -> stalled")
        await asyncio.sleep(3600)
        return
    server_reader, server_writer = await asyncio.open_connection("127.0.0.1", server_port)
    headers["host"] = f"127.0.0.1:{server_port}"
    headers.pop("accept-encoding", None)
    server_writer.write(encode(first, headers, body))
    await server_writer.drain()
    answer = await read_message(server_reader, is_response=True, method=method)
    server_writer.close()
    data = encode(*answer)
    if current[0] == "hang-after-write" and write:
        log(f"{method} {path} -> {answer[0]} kept back")
        open(mode_file + ".written", "w").close()
        await asyncio.sleep(3600)
        return
    if current[0] == "cut":
        data = data[: int(current[1])]
        log(f"{method} {path} -> cut at {len(data)} bytes")
    else:
        log(f"{method} {path} -> {answer[0]}")
    client_writer.write(data)
    await client_writer.drain()
    client_writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", listen_port)
    print("listening", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
