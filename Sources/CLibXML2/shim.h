#pragma once
#include <libxml/xmlreader.h>
