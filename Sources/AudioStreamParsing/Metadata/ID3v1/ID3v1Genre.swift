/// The ID3v1 genre list: genre byte → name, shared by ID3v1 tags and ID3v2 `TCON`/`TCO` references.
///
/// Source: genres 0–79 are the list of ID3v1 (id3.org "ID3 tag version 2.3.0", Appendix A "Genre
/// List from ID3v1"); 80–125 are Winamp's first extension, 126–147 Winamp 1.91's, 148–191 Winamp
/// 5.6's, with Winamp's spellings (the same table FFmpeg's `libavformat/id3v1.c` and TagLib use, so
/// the names match what ffprobe reports). 133 is listed under its later name, "Afro-Punk".
enum ID3v1Genre {
    /// Genre names by genre byte, 0 to 191. 255 means "no genre"; other bytes are unknown.
    static let names: [String] = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop",  // 0
        "Jazz", "Metal", "New Age", "Oldies", "Other", "Pop", "R&B", "Rap",  // 8
        "Reggae", "Rock", "Techno", "Industrial", "Alternative", "Ska", "Death Metal", "Pranks",  // 16
        "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop", "Vocal", "Jazz+Funk", "Fusion", "Trance",  // 24
        "Classical", "Instrumental", "Acid", "House", "Game", "Sound Clip", "Gospel", "Noise",  // 32
        "AlternRock", "Bass", "Soul", "Punk", "Space", "Meditative", "Instrumental Pop",  // 40
        "Instrumental Rock",  // 47
        "Ethnic", "Gothic", "Darkwave", "Techno-Industrial", "Electronic", "Pop-Folk", "Eurodance",  // 48
        "Dream",  // 55
        "Southern Rock", "Comedy", "Cult", "Gangsta", "Top 40", "Christian Rap", "Pop/Funk", "Jungle",  // 56
        "Native American", "Cabaret", "New Wave", "Psychedelic", "Rave", "Showtunes", "Trailer",  // 64
        "Lo-Fi",  // 71
        "Tribal", "Acid Punk", "Acid Jazz", "Polka", "Retro", "Musical", "Rock & Roll", "Hard Rock",  // 72
        // Winamp extensions.
        "Folk", "Folk-Rock", "National Folk", "Swing", "Fast Fusion", "Bebop", "Latin", "Revival",  // 80
        "Celtic", "Bluegrass", "Avantgarde", "Gothic Rock", "Progressive Rock", "Psychedelic Rock",  // 88
        "Symphonic Rock", "Slow Rock",  // 94
        "Big Band", "Chorus", "Easy Listening", "Acoustic", "Humour", "Speech", "Chanson", "Opera",  // 96
        "Chamber Music", "Sonata", "Symphony", "Booty Bass", "Primus", "Porn Groove", "Satire",  // 104
        "Slow Jam",  // 111
        "Club", "Tango", "Samba", "Folklore", "Ballad", "Power Ballad", "Rhythmic Soul", "Freestyle",  // 112
        "Duet", "Punk Rock", "Drum Solo", "A Cappella", "Euro-House", "Dance Hall", "Goa",  // 120
        "Drum & Bass",  // 127
        "Club-House", "Hardcore Techno", "Terror", "Indie", "BritPop", "Afro-Punk", "Polsk Punk",  // 128
        "Beat",  // 135
        "Christian Gangsta Rap", "Heavy Metal", "Black Metal", "Crossover", "Contemporary Christian",  // 136
        "Christian Rock", "Merengue", "Salsa",  // 141
        "Thrash Metal", "Anime", "Jpop", "Synthpop", "Abstract", "Art Rock", "Baroque", "Bhangra",  // 144
        "Big Beat", "Breakbeat", "Chillout", "Downtempo", "Dub", "EBM", "Eclectic", "Electro",  // 152
        "Electroclash", "Emo", "Experimental", "Garage", "Global", "IDM", "Illbient",  // 160
        "Industro-Goth",  // 167
        "Jam Band", "Krautrock", "Leftfield", "Lounge", "Math Rock", "New Romantic", "Nu-Breakz",  // 168
        "Post-Punk",  // 175
        "Post-Rock", "Psytrance", "Shoegaze", "Space Rock", "Trop Rock", "World Music", "Neoclassical",  // 176
        "Audiobook",  // 183
        "Audio Theatre", "Neue Deutsche Welle", "Podcast", "Indie Rock", "G-Funk", "Dubstep",  // 184
        "Garage Rock", "Psybient",  // 190
    ]

    /// The name of genre `index`, or `nil` when the index is outside the table (255 = none).
    static func name(_ index: Int) -> String? {
        index >= 0 && index < names.count ? names[index] : nil
    }

    /// Resolves one `TCON` value to genre names (ID3v2.3 §4.2.1 "TCON", ID3v2.4 native frames §4.2.3):
    ///
    /// - 2.3 references: `(13)` → Pop, `(17)(6)` → Rock, Grunge; text after the references refines
    ///   them (`(4)Eurodisco` → Disco, Eurodisco; the text is dropped when it repeats a name);
    ///   `((` starts literal text that begins with `(`.
    /// - 2.4 values: `13` → Pop.
    /// - `RX` / `(RX)` → Remix, `CR` / `(CR)` → Cover (both versions).
    /// - Anything else is a genre name as written. An unknown number is kept as written.
    static func resolve(_ value: String) -> [String] {
        let scalars = Array(value.unicodeScalars)
        if let special = keyword(value) { return [special] }
        if let n = number(scalars[...]) { return [name(n) ?? value] }
        var genres: [String] = []
        var i = 0
        // Leading "(n)" references.
        while i < scalars.count, scalars[i] == "(" {
            if i + 1 < scalars.count, scalars[i + 1] == "(" { break }
            guard let close = scalars[i...].firstIndex(of: ")") else { break }
            let inner = String(String.UnicodeScalarView(scalars[(i + 1)..<close]))
            if let special = keyword(inner) {
                genres.append(special)
            } else if let n = number(scalars[(i + 1)..<close]) {
                genres.append(name(n) ?? "(\(inner))")
            } else {
                break
            }
            i = close + 1
        }
        var rest = String(String.UnicodeScalarView(scalars[i...]))
        if rest.hasPrefix("((") { rest.removeFirst() }
        if !rest.isEmpty && !genres.contains(rest) { genres.append(rest) }
        return genres
    }

    private static func keyword(_ s: String) -> String? {
        switch s {
        case "RX": return "Remix"
        case "CR": return "Cover"
        default: return nil
        }
    }

    /// A decimal number of one to three digits.
    private static func number(_ s: ArraySlice<Unicode.Scalar>) -> Int? {
        guard !s.isEmpty, s.count <= 3, s.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return s.reduce(0) { $0 * 10 + Int($1.value - 48) }
    }
}
