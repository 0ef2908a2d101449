"""What every picture we draw shares: the themes' colours, the words by language, the glyph
outlines, the bundled fonts and the PNG rasteriser (the chart wheel's and the Vedic charts')."""
