import Testing
@testable import AudioStreamParsing
