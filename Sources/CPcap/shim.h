// libpcap (Debian libpcap-dev), wrapped by the Capture module only.
#include <pcap/pcap.h>
