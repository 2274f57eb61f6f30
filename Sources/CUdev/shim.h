#pragma once
#include <libudev.h>
