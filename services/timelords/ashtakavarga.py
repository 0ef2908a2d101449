"""/v1/vedic/ashtakavarga: the seven bhinnashtakavargas of a birth, each sign's bindus with the
contributors that gave them and what the reductions leave, each one's pindas, and the
sarvashtakavarga with its reductions."""

from __future__ import annotations

from celestial.v1 import vedic_pb2 as pb
from kernel.ashtakavarga import CONTRIBUTORS, TOTALS, ashtakavarga
from kernel.deadline import Deadline
from kernel.vedic_chart import LAGNA, cast_vedic_chart
from kernel.zodiac import SIGN_KEYS
from services.timelords.vedic_chart import POSITIONS
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, fill_instant, sent_moment_name


def compute(request: pb.ComputeAshtakavargaRequest, deadline: Deadline) -> pb.ComputeAshtakavargaResponse:
    """Return the ashtakavarga container: the conventions, the contributors' signs, the seven
    bhinnashtakavargas and the sarvashtakavarga."""
    ayanamsha = request.query
    moment, place = birth_from(request)
    with naming_moment(sent_moment_name(request, "birth.moment")):
        chart = cast_vedic_chart(moment, place, ayanamsha, node=request.node)
    signs = {p.name: int(p.longitude // 30.0) % 12 for p in chart.points if p.name in CONTRIBUTORS}
    lagna = signs[LAGNA]

    def house(sign: int) -> int:
        return (sign - lagna) % 12 + 1

    result = ashtakavarga(signs)
    reduced = result.sarvashtakavarga_reduction
    data = pb.AshtakavargaData(
        contributors=[
            pb.AshtakavargaContributor(body=name, sign=SIGN_KEYS[signs[name]], house=house(signs[name]))
            for name in CONTRIBUTORS
        ],
        bhinnashtakavargas=[
            pb.Bhinnashtakavarga(
                body=bav.graha,
                total=TOTALS[bav.graha],
                signs=[
                    pb.AshtakavargaSign(
                        sign=SIGN_KEYS[sign],
                        house=house(sign),
                        bindus=len(given),
                        contributors=given,
                        bindus_after_trikona=reduction.after_trikona[sign],
                        bindus_after_ekadhipatya=reduction.after_ekadhipatya[sign],
                    )
                    for sign, given in enumerate(bav.contributors)
                ],
                rasi_pinda=reduction.rasi_pinda,
                graha_pinda=reduction.graha_pinda,
                shodhya_pinda=reduction.shodhya_pinda,
            )
            for bav, reduction in zip(result.bhinnashtakavargas, result.reductions, strict=True)
        ],
        sarvashtakavarga=[
            pb.SarvashtakavargaSign(
                sign=SIGN_KEYS[sign],
                house=house(sign),
                bindus=bindus,
                bindus_after_trikona=reduced.after_trikona[sign],
                bindus_after_ekadhipatya=reduced.after_ekadhipatya[sign],
                bindus_of_reduced_bhinnashtakavargas=reduced.of_reduced_bhinnashtakavargas[sign],
            )
            for sign, bindus in enumerate(result.sarvashtakavarga)
        ],
        sarvashtakavarga_total=sum(result.sarvashtakavarga),
    )
    fill_instant(data.moment, moment.jd_ut1)
    conventions = pb.VedicConventions(
        ayanamsha=chart.ayanamsha.name,
        ayanamsha_id=chart.ayanamsha.id,
        ayanamsha_deg=chart.ayanamsha_deg,
        node=chart.node,
        positions=POSITIONS,
    )
    return pb.ComputeAshtakavargaResponse(
        data=data, conventions=conventions, warnings=[c.message for c in chart.warnings]
    )
