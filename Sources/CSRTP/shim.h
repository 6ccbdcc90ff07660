// libsrtp2 (Debian libsrtp2-dev), wrapped by the RTP module only.
#include <srtp2/srtp.h>
