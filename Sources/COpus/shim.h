// libopus (Debian libopus-dev), wrapped by the Codecs module only.
#include <opus.h>
#include <opus_defines.h>
