// scratch: not committed
use chart_raster_skia::scene::*;
use chart_raster_skia::text::TextEngine;
use chart_spec::font::*;
use chart_spec::Rgba;

fn main() {
    let mut items = Vec::new();
    let f = |fam: &str, size: f32, w: u16, style: FontStyle| FontSpec {
        family: fam.into(),
        size,
        weight: w,
        style,
        line_height: size * 1.2,
    };
    let t = |text: &str, x: f32, y: f32, font: FontSpec, align, baseline, transform, c: Rgba| {
        Item::Text(TextItem {
            text: text.into(),
            x,
            y,
            font,
            paint: Paint::Solid(c),
            align,
            baseline,
            transform,
            stroke: None,
        })
    };
    let def = "'Helvetica Neue', Helvetica, Arial, sans-serif";
    items.push(t(
        "Hello World 0.5 January",
        10.0,
        20.0,
        f(def, 12.0, 400, FontStyle::Normal),
        TextAlign::Left,
        TextBaseline::Middle,
        Transform::IDENTITY,
        Rgba::BLACK,
    ));
    items.push(t(
        "Hello World 0.5 January",
        10.3,
        40.6,
        f(def, 12.0, 400, FontStyle::Normal),
        TextAlign::Left,
        TextBaseline::Top,
        Transform::IDENTITY,
        Rgba::BLACK,
    ));
    items.push(t(
        "Chart Title AV",
        150.0,
        80.0,
        f("Arial", 16.0, 700, FontStyle::Normal),
        TextAlign::Center,
        TextBaseline::Alphabetic,
        Transform::IDENTITY,
        Rgba::BLACK,
    ));
    let tr =
        Transform::translate(280.0, 100.0).then(Transform::rotate(-std::f32::consts::PI / 2.0));
    items.push(t(
        "Axis title",
        40.0,
        0.0,
        f("Arial", 12.0, 400, FontStyle::Normal),
        TextAlign::Center,
        TextBaseline::Middle,
        tr,
        Rgba::rgb(0x66, 0x66, 0x66),
    ));
    items.push(t(
        "Italic 123",
        10.0,
        110.0,
        f("Arial", 12.0, 400, FontStyle::Italic),
        TextAlign::Left,
        TextBaseline::Middle,
        Transform::IDENTITY,
        Rgba::BLACK,
    ));
    let scene = Scene {
        width: 300.0,
        height: 120.0,
        device_pixel_ratio: 1.0,
        background: Rgba::TRANSPARENT,
        items,
    };
    let b = chart_raster_skia::raster::rasterize(&scene, &TextEngine::system()).unwrap();
    let file = std::fs::File::create("/tmp/cm/ours_text.png").unwrap();
    let mut enc = png::Encoder::new(file, b.width, b.height);
    enc.set_color(png::ColorType::Rgba);
    enc.write_header()
        .unwrap()
        .write_image_data(&b.data)
        .unwrap();
}
