# SbekitGenerate.cmake: generate header-only C++ SBE codecs at build time with the sbekit CLI,
# the way protobuf_generate does.
#
#   list(APPEND CMAKE_MODULE_PATH path/to/sbekit/cmake)
#   include(SbekitGenerate)
#   sbekit_generate(TARGET orders SCHEMA schemas/orders.xml)   # an INTERFACE library
#   target_link_libraries(app PRIVATE orders)                   # #include "orders/orders.hpp"
#
# Arguments:
#   TARGET      name of the INTERFACE library to create (required)
#   SCHEMA      the schema, SBE XML or .sbeir (required; relative to the current source dir)
#   PACKAGE     include directory and C++ namespace (default: TARGET; must be an identifier)
#   OUTPUT_DIR  where the library is written (default: ${CMAKE_CURRENT_BINARY_DIR}/sbekit/TARGET)
#
# The CLI is SBEKIT_EXECUTABLE if set, else `sbekit` found on the PATH. The headers are
# regenerated when the schema (or the sbekit executable) changes.
include_guard(GLOBAL)

function(sbekit_generate)
    cmake_parse_arguments(ARG "" "TARGET;SCHEMA;PACKAGE;OUTPUT_DIR" "" ${ARGN})
    if(NOT ARG_TARGET OR NOT ARG_SCHEMA)
        message(FATAL_ERROR "sbekit_generate: TARGET and SCHEMA are required")
    endif()
    if(ARG_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "sbekit_generate: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT SBEKIT_EXECUTABLE)
        find_program(SBEKIT_EXECUTABLE sbekit)
        if(NOT SBEKIT_EXECUTABLE)
            message(FATAL_ERROR "sbekit_generate: the sbekit CLI was not found; install it "
                                "(cargo install --path crates/sbekit) or set SBEKIT_EXECUTABLE")
        endif()
    endif()
    set(pkg "${ARG_PACKAGE}")
    if(NOT pkg)
        set(pkg "${ARG_TARGET}")
    endif()
    if(NOT pkg MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
        message(FATAL_ERROR "sbekit_generate: PACKAGE '${pkg}' is not a C++ identifier")
    endif()
    set(out "${ARG_OUTPUT_DIR}")
    if(NOT out)
        set(out "${CMAKE_CURRENT_BINARY_DIR}/sbekit/${ARG_TARGET}")
    endif()
    get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    set(inc "${out}/include/${pkg}")
    set(headers
        "${inc}/sbekit_runtime.hpp" "${inc}/types.hpp" "${inc}/messages.hpp" "${inc}/json.hpp"
        "${inc}/${pkg}.hpp" "${inc}/conformance.hpp" "${inc}/owned.hpp")
    add_custom_command(
        OUTPUT ${headers}
        COMMAND "${SBEKIT_EXECUTABLE}" generate --lang cpp "${schema}" -o "${out}" --crate-name "${pkg}"
        DEPENDS "${schema}" "${SBEKIT_EXECUTABLE}"
        COMMENT "sbekit: C++ codecs for ${ARG_SCHEMA}"
        VERBATIM)
    add_custom_target(${ARG_TARGET}_sbekit_generate DEPENDS ${headers})
    add_library(${ARG_TARGET} INTERFACE)
    add_dependencies(${ARG_TARGET} ${ARG_TARGET}_sbekit_generate)
    target_include_directories(${ARG_TARGET} INTERFACE "${out}/include")
    target_compile_features(${ARG_TARGET} INTERFACE cxx_std_17)
endfunction()
