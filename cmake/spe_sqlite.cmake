# How spekit gets SQLite (README.md, "Build by hand"; docs/performance.md
# has the figures).  Sets SPE_SQLITE_TARGET to the target to link.
#
# SPE_SQLITE_LINK=source (the default) compiles SQLite into the programs from
# Debian's source package of sqlite3 (scripts/sqlite-source.sh fetches it with
# apt-get source at configure time and makes the amalgamation; it is cached in
# SPE_SQLITE_CACHE, never copied into the repository), with the project's
# compiler flags and the options below.  When that fails (no network, not
# Debian) the build says why and falls back to static.
# SPE_SQLITE_LINK=static links Debian's libsqlite3.a from libsqlite3-dev:
# SQLite's calls then go straight to their targets instead of through the PLT
# of libsqlite3.so.  SPE_SQLITE_LINK=shared links libsqlite3.so; it is also
# what a build gets when no static library is installed.
set(SPE_SQLITE_LINK "source" CACHE STRING
    "How to get SQLite: source (Debian's source package compiled in; falls back to static), static (libsqlite3.a; falls back to shared) or shared")
set_property(CACHE SPE_SQLITE_LINK PROPERTY STRINGS source static shared)
set(spe_sqlite_cache_default "${CMAKE_BINARY_DIR}/sqlite-source")
if(DEFINED ENV{SPE_SQLITE_CACHE} AND NOT "$ENV{SPE_SQLITE_CACHE}" STREQUAL "")
  set(spe_sqlite_cache_default "$ENV{SPE_SQLITE_CACHE}")
endif()
set(SPE_SQLITE_CACHE "${spe_sqlite_cache_default}" CACHE PATH
    "Where SPE_SQLITE_LINK=source keeps Debian's sqlite3 source package and the amalgamation made from it")
if(NOT SPE_SQLITE_LINK MATCHES "^(source|static|shared)$")
  message(FATAL_ERROR "SPE_SQLITE_LINK must be source, static or shared, not '${SPE_SQLITE_LINK}'")
endif()
find_package(Threads REQUIRED)

set(SPE_SQLITE_TARGET PkgConfig::SQLITE3)
set(spe_sqlite_how ${SPE_SQLITE_LINK})
if(spe_sqlite_how STREQUAL "source")
  execute_process(COMMAND ${PROJECT_SOURCE_DIR}/scripts/sqlite-source.sh ${SPE_SQLITE_CACHE}
                  RESULT_VARIABLE spe_sqlite_rc ERROR_VARIABLE spe_sqlite_err)
  if(spe_sqlite_rc EQUAL 0 AND EXISTS ${SPE_SQLITE_CACHE}/sqlite3.c)
    file(READ ${SPE_SQLITE_CACHE}/debian-version spe_sqlite_version)
    string(STRIP "${spe_sqlite_version}" spe_sqlite_version)
    add_library(spe_sqlite3_source STATIC ${SPE_SQLITE_CACHE}/sqlite3.c)
    # SQLite's own code: its warnings are not ours to fix (-w beats -Werror),
    # and it is optimised in every build type, Debug and the sanitizer build
    # too (which still instrument it), so their SQL-heavy tests stay quick.
    target_compile_options(spe_sqlite3_source PRIVATE -w -O2)
    if(SPE_SANITIZE OR SPE_FUZZ)
      # UBSan checks spekit's code, not SQLite's: SQLite's B-tree balancing
      # reads page pointers through arrays UBSan's object-size check cannot
      # size ("insufficient space for an object of type 'struct MemPage *'"
      # in balance_nonroot, 3.40.1), which stopped tests mid-load.  SQLite
      # keeps AddressSanitizer: a memory error of ours inside it still shows.
      target_compile_options(spe_sqlite3_source PRIVATE -fno-sanitize=undefined)
    endif()
    if(SPE_FUZZ)
      # libFuzzer's coverage feedback from SQLite's branches would steer the
      # fuzzers away from spekit's parsers (SQLite keeps the sanitizers).
      target_compile_options(spe_sqlite3_source PRIVATE -fno-sanitize=fuzzer-no-link)
    endif()
    target_compile_definitions(spe_sqlite3_source PRIVATE
      # Threads: the loader's writer thread (analysis/store/sink_async.c) uses a
      # connection the main thread opened, one thread at a time; spe-load
      # picks multi-thread or single-thread mode at start (cli/cmd_load.c).
      SQLITE_THREADSAFE=1
      # Speed (https://sqlite.org/compile.html, "Recommended options"), each
      # safe for us: memory statistics off unless spe-query --max-memory asks
      # (cli/cmd_query.c turns them on); no shared cache, no deprecated
      # interfaces (neither is used); LIKE never converts a BLOB; alloca for
      # the parser's temporaries.  Debian's SQLITE_OMIT_LOOKASIDE and
      # SQLITE_SECURE_DELETE, which slow inserts, are left out.
      SQLITE_DEFAULT_MEMSTATUS=0 SQLITE_OMIT_SHARED_CACHE SQLITE_OMIT_DEPRECATED
      SQLITE_LIKE_DOESNT_MATCH_BLOBS SQLITE_USE_ALLOCA
      # Features Debian enables that spekit uses: URI file names (spe-report
      # --diff attaches "file:...?mode=ro"), dbstat (bench/bench_load.sh's
      # bytes per record) and the math functions in queries.  JSON (json_each
      # in the views and the report) and window functions are SQLite's defaults.
      SQLITE_USE_URI=1 SQLITE_ENABLE_DBSTAT_VTAB SQLITE_ENABLE_MATH_FUNCTIONS
      # What SQLite's configure finds in glibc (its sqlite_cfg.h, as Debian
      # builds it): without HAVE_USLEEP a busy wait sleeps whole seconds, and
      # without HAVE_PREAD64 every page read or write is an lseek first.
      HAVE_USLEEP=1 HAVE_FDATASYNC=1 HAVE_LOCALTIME_R=1 HAVE_GMTIME_R=1 HAVE_ISNAN=1
      HAVE_STRCHRNUL=1 HAVE_MALLOC_H=1 HAVE_UTIME=1 HAVE_STDINT_H=1 HAVE_INTTYPES_H=1
      HAVE_PREAD=1 HAVE_PWRITE=1 HAVE_PREAD64=1 HAVE_PWRITE64=1)
    # Before the system's include directories, so <sqlite3.h> is this one.
    target_include_directories(spe_sqlite3_source BEFORE PUBLIC ${SPE_SQLITE_CACHE})
    target_link_libraries(spe_sqlite3_source PUBLIC m ${CMAKE_DL_LIBS} Threads::Threads)
    set(SPE_SQLITE_TARGET spe_sqlite3_source)
    file(STRINGS ${SPE_SQLITE_CACHE}/sqlite3.h spe_sqlite_define REGEX "^#define SQLITE_VERSION +\"")
    string(REGEX REPLACE ".*\"(.*)\".*" "\\1" spe_sqlite_upstream "${spe_sqlite_define}")
    message(STATUS "SQLite: compiled in from Debian's sqlite3 ${spe_sqlite_version} (${SPE_SQLITE_CACHE})")
  else()
    string(STRIP "${spe_sqlite_err}" spe_sqlite_err)
    message(WARNING "SQLite: SPE_SQLITE_LINK=source failed, linking the system library instead.\n${spe_sqlite_err}")
    set(spe_sqlite_how static)
  endif()
endif()
if(spe_sqlite_how STREQUAL "static")
  find_library(SPE_SQLITE_STATIC_LIB NAMES libsqlite3.a HINTS ${SQLITE3_LIBRARY_DIRS} NO_CACHE)
  if(SPE_SQLITE_STATIC_LIB)
    add_library(spe_sqlite3_static INTERFACE)
    # libsqlite3.a's own dependencies, as pkg-config --static lists them
    target_link_libraries(spe_sqlite3_static INTERFACE ${SPE_SQLITE_STATIC_LIB} m ${CMAKE_DL_LIBS} Threads::Threads)
    target_include_directories(spe_sqlite3_static INTERFACE ${SQLITE3_INCLUDE_DIRS})
    find_package(ZLIB QUIET)
    if(ZLIB_FOUND)
      target_link_libraries(spe_sqlite3_static INTERFACE ZLIB::ZLIB)
    endif()
    set(SPE_SQLITE_TARGET spe_sqlite3_static)
    set(spe_sqlite_upstream ${SQLITE3_VERSION})
    message(STATUS "SQLite: static ${SPE_SQLITE_STATIC_LIB}")
  else()
    message(STATUS "SQLite: no libsqlite3.a found, linking the shared library")
    set(spe_sqlite_how shared)
  endif()
endif()
if(spe_sqlite_how STREQUAL "shared")
  set(spe_sqlite_upstream ${SQLITE3_VERSION})
endif()
# What was chosen, for tests/analysis/test_sqlite_build.c.
set_property(GLOBAL PROPERTY SPE_SQLITE_MODE ${spe_sqlite_how})
set_property(GLOBAL PROPERTY SPE_SQLITE_VERSION ${spe_sqlite_upstream})
