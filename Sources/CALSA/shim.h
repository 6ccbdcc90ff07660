// ALSA (Debian libasound2-dev), wrapped by the AudioDevice module only.
#include <alsa/asoundlib.h>
