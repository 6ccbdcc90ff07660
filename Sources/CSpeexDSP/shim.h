// libspeexdsp (Debian libspeexdsp-dev), wrapped by the Codecs module only.
// Its pkg-config file adds no include path, so the headers are named with their folder.
#include <speex/speex_resampler.h>
#include <speex/speex_preprocess.h>
#include <speex/speex_echo.h>
#include <speex/speex_jitter.h>
