//! Drawing a word cloud: each placed word (`WordElement.draw`), from the laid-out
//! [`WordCloudElements`].

use super::Placed;
use crate::elements::dataset::PluginElements;
use crate::elements::{Area, Ctx};
use crate::scene::{TextAlign, TextBaseline};
use chart_spec::model::WordCloudOptions;
use chart_spec::values::Font;

/// What a word cloud dataset draws: the placed words, their texts, the board's area and the
/// dataset's options.
pub(super) struct WordCloudElements<'a> {
    pub(super) placed: Vec<Placed>,
    pub(super) texts: Vec<String>,
    pub(super) area: Area,
    pub(super) options: &'a WordCloudOptions,
}

impl PluginElements for WordCloudElements<'_> {
    fn draw(&self, ctx: &mut Ctx<'_>, _area: &Area) {
        let o = self.options;
        let area = self.area;
        let (w, h) = (area.right - area.left, area.bottom - area.top);
        let texts = &self.texts;
        for p in &self.placed {
            let Some(word) = o.words.get(p.index) else {
                continue;
            };
            let Some(text) = texts.get(p.index) else {
                continue;
            };
            let size = word.size.clamp(0.0, 100_000.0);
            let mut spec = word.font.clone();
            spec.size = size as f32;
            let font = Font {
                size,
                line_height: size * 1.2,
                spec,
            };
            ctx.save();
            ctx.translate(area.left + p.x + w / 2.0, area.top + p.y + h / 2.0);
            ctx.rotate(p.rotate / 180.0 * std::f64::consts::PI);
            let stroke = word.stroke.map(|(c, width)| {
                (
                    width
                        .filter(|w| w.is_finite())
                        .unwrap_or(1.0)
                        .clamp(0.0, 1_000.0),
                    c,
                )
            });
            ctx.fill_text(
                text,
                0.0,
                0.0,
                &font,
                word.color,
                TextAlign::Center,
                TextBaseline::Alphabetic,
                stroke,
            );
            ctx.restore();
        }
    }
}
