error: bad/js/j13_version_string.json: "version" must be an integer
