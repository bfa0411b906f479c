// libsystemc.so references sc_main; the tests use GoogleTest's main and drive
// networks directly (sim.kernel = "direct"), so this is never called.
extern "C" int sc_main(int, char**) { return 0; }
