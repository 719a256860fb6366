import AudioStreamParsing
print("audioinspect: not implemented yet")
