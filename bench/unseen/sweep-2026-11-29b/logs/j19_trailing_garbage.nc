error: bad/js/j19_trailing_garbage.json: invalid JSON: [1:12, byte=12]: Text after end of document
