#!/usr/bin/perl
# Writes an ID3v2.3 tag with MP3::Tag (Debian's libmp3-tag-perl), which unsynchronises
# v2.3 tags whenever their bytes need it (its default id3v23_unsync = 1): the Latin-1
# title below contains "ÿà" (FF E0) and the PNG cover contains FF bytes.
#
#   perl tools/metadata_unsync.pl FILE COVER
#
# The values are the expectations of TagFixtureTests.swift; change both together.
use strict;
use warnings;
use MP3::Tag;

my ($file, $cover) = @ARGV;
die "usage: metadata_unsync.pl FILE COVER\n" unless defined $cover;
open(my $fh, '<:raw', $cover) or die "cannot read $cover: $!\n";
my $png = do { local $/; <$fh> };
close $fh;

MP3::Tag->config(id3v23_unsync => 1);
my $mp3 = MP3::Tag->new($file);
my $tag = $mp3->new_tag("ID3v2");
$tag->add_frame("TIT2", 0, "Unsync \xFF\xE0 T\xEFtle");
$tag->add_frame("TPE1", 0, "Unsync Artist");
$tag->add_frame("TALB", 0, "Unsync Album");
$tag->add_frame("TYER", 0, "1998");
$tag->add_frame("APIC", 0, "image/png", "\x03", "Cover", $png);
$tag->write_tag();
$mp3->close();
