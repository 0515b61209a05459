#ifndef STOREPRICE_CICU_SYSTEM_H
#define STOREPRICE_CICU_SYSTEM_H

// The system ICU (libicu-dev), found with pkg-config, for the CICU target to compile and link
// against. It declares nothing: CICU's own header is all that Swift sees of ICU, so that ICU's
// types never meet the copies Foundation carries.

#endif
