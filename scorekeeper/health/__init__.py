"""Health of a running server: whether the process answers, whether it is ready for requests
(its database answers and has every migration), and the migrations applied at start under a
lock, so that several servers starting at once on one database apply each migration once."""
