//! Records of games (one JSON line each) and their replay.
