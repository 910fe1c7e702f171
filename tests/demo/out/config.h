/* Generated from config.def by gen-config.sh; do not edit. */
#ifndef DEMO_CONFIG_H
#define DEMO_CONFIG_H

#define DEMO_NAME         "wordstat"
#define DEMO_VERSION      "1.4.2"
#define DEMO_TOP_N        12
#define DEMO_BAR_WIDTH    40
#define DEMO_HASH_BITS    10
#define DEMO_MIN_LEN      3

#define DEMO_CONFIG_ENTRIES 6

#endif
