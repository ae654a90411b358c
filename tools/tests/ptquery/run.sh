#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh PYTHON SCRIPT ARG...: the test executable of suite 'tools'.
# Under meson's valgrind setup only this shell is wrapped; exec'ing
# python leaves valgrind behind, and wrap.py puts ptquery under it.
exec "$@"
