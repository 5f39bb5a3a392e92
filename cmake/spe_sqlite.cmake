# How spekit links SQLite (docs/spe-load.1.md, "Performance", has the figures).
#
# SPE_SQLITE_LINK=static (the default) links Debian's libsqlite3.a from
# libsqlite3-dev into the programs: SQLite's calls then go straight to their
# targets instead of through the PLT of libsqlite3.so, and spe-load inserts
# its rows faster.  SPE_SQLITE_LINK=shared links libsqlite3.so; it is also
# what a build gets when no static library is installed.  Sets
# SPE_SQLITE_TARGET to the target to link.
set(SPE_SQLITE_LINK "static" CACHE STRING "How to link SQLite: static (libsqlite3.a, falls back to shared) or shared")
set_property(CACHE SPE_SQLITE_LINK PROPERTY STRINGS static shared)

set(SPE_SQLITE_TARGET PkgConfig::SQLITE3)
if(SPE_SQLITE_LINK STREQUAL "static")
  find_library(SPE_SQLITE_STATIC_LIB NAMES libsqlite3.a HINTS ${SQLITE3_LIBRARY_DIRS} NO_CACHE)
  if(SPE_SQLITE_STATIC_LIB)
    find_package(Threads REQUIRED)
    add_library(spe_sqlite3_static INTERFACE)
    # libsqlite3.a's own dependencies, as pkg-config --static lists them
    target_link_libraries(spe_sqlite3_static INTERFACE ${SPE_SQLITE_STATIC_LIB} m ${CMAKE_DL_LIBS} Threads::Threads)
    target_include_directories(spe_sqlite3_static INTERFACE ${SQLITE3_INCLUDE_DIRS})
    find_package(ZLIB QUIET)
    if(ZLIB_FOUND)
      target_link_libraries(spe_sqlite3_static INTERFACE ZLIB::ZLIB)
    endif()
    set(SPE_SQLITE_TARGET spe_sqlite3_static)
    message(STATUS "SQLite: static ${SPE_SQLITE_STATIC_LIB}")
  else()
    message(STATUS "SQLite: no libsqlite3.a found, linking the shared library")
  endif()
elseif(NOT SPE_SQLITE_LINK STREQUAL "shared")
  message(FATAL_ERROR "SPE_SQLITE_LINK must be static or shared, not '${SPE_SQLITE_LINK}'")
endif()
