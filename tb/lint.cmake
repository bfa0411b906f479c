# ctest rtl_lint: `verilator --lint-only -Wall` on every RTL module (default parameters), as
# synthesized and with the verification state ports (CCSIM_STATE_PORTS).
# Any warning or error fails the test (nothing is waived).
foreach(m ${MODULES})
  foreach(defs "" "-DCCSIM_STATE_PORTS")
    execute_process(
      COMMAND ${VERILATOR} --lint-only -Wall ${defs} ${RTL_DIR}/${m}.sv
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR out MATCHES "%(Warning|Error)" OR err MATCHES "%(Warning|Error)")
      message(FATAL_ERROR "lint failed for ${m}.sv ${defs} (rc=${rc}):\n${out}${err}")
    endif()
    message(STATUS "lint clean: ${m}.sv ${defs}")
  endforeach()
endforeach()
