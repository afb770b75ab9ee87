/** A worker that cannot start (as one finding no free file descriptor, or a broken build): it exits at once. */
process.exit(3);
