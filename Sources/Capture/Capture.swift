// Capture: pcap/pcapng reading and writing through libpcap, and link/IP/UDP decoding.
