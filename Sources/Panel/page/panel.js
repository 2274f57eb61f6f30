/* Placeholder: the panel page (panel-page) replaces this file. */
