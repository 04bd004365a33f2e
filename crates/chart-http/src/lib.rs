//! The HTTP service: routes, auth, headers and errors over the [`chart_raster`] facade. Takes a
//! bound listener and a shutdown future; the process (signals, logging set-up) belongs to the binary.
