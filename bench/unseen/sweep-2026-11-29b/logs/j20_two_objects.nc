error: bad/js/j20_two_objects.json: invalid JSON: [1:11, byte=11]: Text after end of document
