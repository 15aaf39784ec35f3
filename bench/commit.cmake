# Writes the current git commit into OUTPUT as COURIER_COMMIT, touching the file only when it
# changed, so benchmarks name the commit they were built from without rebuilding every time.
execute_process(COMMAND git rev-parse HEAD WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit unknown)
endif()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT "#define COURIER_COMMIT \"${commit}\"\n")
