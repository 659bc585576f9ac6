#!/usr/bin/python3
# Sends UDP datagrams to ADDRESS:PORT at about BYTES_PER_SECOND for SECONDS, then exits: traffic that the
# identity tests make inside a user's own network namespace, where no server needs to answer.
import socket
import sys
import time

address, port, rate, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
datagram = bytes(1200)
interval = len(datagram) / rate
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
start = time.monotonic()
sent = 0
while time.monotonic() - start < seconds:
    sender.sendto(datagram, (address, port))
    sent += 1
    pause = start + sent * interval - time.monotonic()
    if pause > 0:
        time.sleep(pause)
print(f"sent {sent} datagrams", flush=True)
