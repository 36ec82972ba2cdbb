//! JavaScript-compatible text rules. Lengths are UTF-16 code units throughout.
