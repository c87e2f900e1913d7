# SPDX-License-Identifier: GPL-2.0-or-later
#
# LB_OPTIONAL_LIB(NAME, DEFINE, HELP, DESCRIPTION, MODULES, APT-PACKAGES,
#                 YES-SUMMARY, [EXTRA-CHECKS], [MISSING-SUMMARY])
# -----------------------------------------------------------------------
# One optional library, handled the same way for each: --with-NAME=check
# (the default) builds with it when it is found, --with-NAME fails configure
# when it is not, --without-NAME builds without it. When it is used, DEFINE
# is 1 in config.h (DESCRIPTION is its comment); either way the
# AM_CONDITIONAL DEFINE tells Makefile.am to build the library's sources or
# their *_none.c stubs, which say how to get it.
#
#   NAME             the option, and the prefix of the shell variables
#                    NAME_why (empty when the library is used, else why not)
#                    and NAME_summary (its line in configure's summary)
#   HELP             the --with-NAME help text
#   MODULES          the pkg-config checks, in order, each
#                    [[PREFIX], [modules], [what]]: PKG_CHECK_MODULES(PREFIX,
#                    modules) sets PREFIX_CFLAGS and PREFIX_LIBS; a missing
#                    one sets NAME_why to "what not found by pkg-config" and
#                    the checks after it are skipped
#   APT-PACKAGES     the Debian packages to install, for the messages
#   YES-SUMMARY      the summary line when the library is used (shell text)
#   EXTRA-CHECKS     shell run after the modules unless --without-NAME (also
#                    when a module was missing); it refuses by setting NAME_why
#   MISSING-SUMMARY  the summary line when the library was looked for and is
#                    missing; by default "no: $NAME_why (apt-get install
#                    APT-PACKAGES)"
AC_DEFUN([LB_OPTIONAL_LIB], [dnl
AC_ARG_WITH([$1],
	[AS_HELP_STRING([--with-$1], [$3 @<:@default=check@:>@])],
	[], [with_$1=check])
$1_why=
AS_IF([test "x$with_$1" = xno], [$1_why="disabled by --without-$1"], [
m4_foreach([_lb_module], [$5], [dnl
	AS_IF([test -z "$$1_why"],
		[PKG_CHECK_MODULES(m4_argn([1], _lb_module), [m4_argn([2], _lb_module)], [],
			[$1_why="m4_argn([3], _lb_module) not found by pkg-config"])])
])dnl
$8
])
AS_IF([test -z "$$1_why"], [
	AC_DEFINE([$2], [1], [$4])
	$1_summary="$7"
], [
	AS_IF([test "x$with_$1" = xyes],
		[AC_MSG_ERROR([--with-$1: $$1_why (apt-get install $6)])])
	AS_IF([test "x$with_$1" = xno], [$1_summary="no: $$1_why"],
		[$1_summary="m4_default([$9], [no: $$1_why (apt-get install $6)])"])
])
AM_CONDITIONAL([$2], [test -z "$$1_why"])
])
