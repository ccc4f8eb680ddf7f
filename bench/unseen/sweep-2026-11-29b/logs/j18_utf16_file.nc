error: bad/js/j18_utf16_file.json: invalid JSON: [1:0, byte=0]: Invalid UTF-8 sequence
